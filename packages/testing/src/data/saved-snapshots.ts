import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSnapshotContent, type DatabaseSnapshot, type SnapshotContent } from './database-snapshot.js';

/** The file beside a migrated template that holds the snapshot of one of its databases. */
function snapshotFile(template: string, databaseId: string): string {
  return path.join(template, `snapshot-${encodeURIComponent(databaseId)}.json`);
}

/**
 * The snapshots of a migrated template's databases, by id, as the first app started from it took them; undefined
 * unless every database has one that reads back (a template made before they were kept, or a file cut short: that
 * app takes them from the running databases again, and keeps them).
 */
export function readSavedSnapshots(template: string, databaseIds: readonly string[]): Map<string, SnapshotContent> | undefined {
  const saved = new Map<string, SnapshotContent>();
  for (const id of databaseIds) {
    let text: string;
    try {
      text = fs.readFileSync(snapshotFile(template, id), 'utf8');
    } catch {
      return undefined;
    }
    const content = parseSnapshotContent(text);
    if (!content) return undefined;
    saved.set(id, content);
  }
  return saved;
}

/**
 * Keeps the snapshots an app took before any test ran beside the template its databases were copied from. Written
 * aside and renamed (test processes side by side never read half a file); a failure only costs the next app a wait.
 */
export function saveSnapshots(template: string, snapshots: ReadonlyMap<string, DatabaseSnapshot>): void {
  for (const [id, snapshot] of snapshots) {
    const file = snapshotFile(template, id);
    const aside = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      fs.writeFileSync(aside, JSON.stringify(snapshot.content));
      fs.renameSync(aside, file);
    } catch {
      fs.rmSync(aside, { force: true });
    }
  }
}
