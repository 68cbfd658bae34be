import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface S3rverProcess {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** Starts s3rver on a free port of 127.0.0.1 in a child process; `stop()` ends it. */
export async function startS3rver(directory: string, buckets: readonly string[]): Promise<S3rverProcess> {
  const script = fileURLToPath(new URL('./s3rver-main.cjs', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ['--openssl-legacy-provider', script, directory, ...buckets], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code} before listening`)));
    child.once('error', reject);
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
