import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AssetHashType, Stage } from 'aws-cdk-lib/core';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { bundleAssetHash } from '../bundling/asset-hash.js';

/** CDK's context key that turns asset staging off (SAM-style local tools set it): the assembly then points at the source. */
const DISABLE_ASSET_STAGING_CONTEXT = 'aws:cdk:disable-asset-staging';

/**
 * A function's code from its bundle folder, hashed from the bytes `bundleApp` wrote (`bundleAssetHash`) and already
 * placed in the cloud assembly where CDK stages it.
 *
 * CDK stages a folder asset by copying it to `<assembly>/asset.<hash>` with its ignore rules and a directory walk,
 * unless that folder exists: then it takes it as staged (the hash names the content). Placing the bundle there
 * first, by hard links (a copy where the file system refuses them), skips that copy: in a profile of a 300-route
 * synth CDK's copy was 0.4 to 1.2 s, mostly the walk and ignore matching. The staged folder, the template and the
 * asset manifest are the same as CDK's own staging gives (`test/asset-hash.test.ts`). Links are safe because every
 * writer of a bundle folder replaces files (new inodes) instead of writing into them: `bundleApp` empties the folder
 * first and `preloadSdkClients` renames a rewritten entry into place.
 */
export function bundleCode(scope: Construct, directory: string): lambda.Code {
  const assetHash = bundleAssetHash(directory);
  const stage = Stage.of(scope);
  if (stage && !scope.node.tryGetContext(DISABLE_ASSET_STAGING_CONTEXT)) {
    // CDK's name for an asset with a CUSTOM hash: the sha256 of the hash it is given (asset-staging's calculateHash).
    stageFolder(directory, path.join(stage.assetOutdir, `asset.${createHash('sha256').update(assetHash).digest('hex')}`));
  }
  return lambda.Code.fromAsset(directory, { assetHashType: AssetHashType.CUSTOM, assetHash });
}

/**
 * Links (or copies) every file of `source` into `target`, through a temporary sibling renamed into place, so an
 * interrupted synth never leaves a partial folder CDK would take as staged. An existing target holds the same bytes
 * (its name is their hash) and is kept.
 */
function stageFolder(source: string, target: string): void {
  if (fs.existsSync(target)) return;
  const temporary = `${target}-staging-${process.pid}`;
  fs.rmSync(temporary, { recursive: true, force: true });
  fs.mkdirSync(temporary, { recursive: true });
  for (const entry of fs.readdirSync(source, { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
    const from = path.join(entry.parentPath ?? entry.path, entry.name);
    const to = path.join(temporary, path.relative(source, from));
    if (entry.isDirectory()) {
      fs.mkdirSync(to, { recursive: true });
    } else if (entry.isFile()) {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      try {
        fs.linkSync(from, to);
      } catch {
        // Another device, or a file system without hard links.
        fs.copyFileSync(from, to);
      }
    }
  }
  try {
    fs.renameSync(temporary, target);
  } catch (error) {
    fs.rmSync(temporary, { recursive: true, force: true });
    // Another synth staged the same bytes meanwhile.
    if (!fs.existsSync(target)) throw error;
  }
}
