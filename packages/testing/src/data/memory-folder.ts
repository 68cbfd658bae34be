import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where Linux keeps a file system in memory (tmpfs), writable by every user. */
const SHARED_MEMORY = '/dev/shm';
/** Less free than this and the databases stay on disk: a container's /dev/shm is often 64 MB, a cluster is ~40 MB. */
const MIN_FREE_BYTES = 1024 ** 3;

/**
 * Puts a test app's databases (`<dataDir>/databases`) in memory when the machine has a tmpfs with room: the folder
 * is a link to one there. A cluster is ~1,000 files and ~40 MB, copied from its template at every `startApp`;
 * written to a disk that takes most of a second, to memory a tenth of that, and the server's own writes get faster
 * too. Nothing is lost: the data of a test app is thrown away at `stop()`. Elsewhere (macOS, Windows, a small
 * /dev/shm) it stays a plain folder. Returns the folder in memory, or undefined.
 */
export function linkDatabasesToMemory(dataDir: string): string | undefined {
  if (process.platform !== 'linux') return undefined;
  let memory: string;
  try {
    const stats = fs.statfsSync(SHARED_MEMORY);
    if (stats.bavail * stats.bsize < MIN_FREE_BYTES) return undefined;
    removeOrphans();
    memory = fs.mkdtempSync(path.join(SHARED_MEMORY, `fw-test-${process.pid}-`));
  } catch {
    return undefined;
  }
  // postgres, running as its own user when the tests run as root, must get through to its cluster.
  fs.chmodSync(memory, 0o711);
  fs.symlinkSync(memory, path.join(dataDir, 'databases'), 'dir');
  return memory;
}

/**
 * Memory is not given back by a reboot-free machine: the folders of test processes that were killed (SIGKILL, the
 * one signal the exit clean-up cannot see) are removed by the next app that starts. A folder is named after its
 * process; one whose process is gone is an orphan.
 */
function removeOrphans(): void {
  for (const name of fs.readdirSync(SHARED_MEMORY)) {
    const pid = /^fw-test-(\d+)-/.exec(name)?.[1];
    if (pid === undefined || alive(Number(pid))) continue;
    const folder = path.join(SHARED_MEMORY, name);
    try {
      // Its native server outlived it: SIGQUIT, as the exit clean-up would have sent.
      const postmaster = Number(fs.readFileSync(path.join(folder, 'native', 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (Number.isInteger(postmaster) && postmaster > 0) process.kill(postmaster, 'SIGQUIT');
    } catch {
      // No native server, or it is gone.
    }
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, and someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a test app's data folder and, when its databases were in memory, that folder too. */
export function removeDataFolder(dataDir: string): void {
  const databases = path.join(dataDir, 'databases');
  try {
    if (fs.lstatSync(databases).isSymbolicLink()) fs.rmSync(fs.readlinkSync(databases), { recursive: true, force: true });
  } catch {
    // No databases folder: nothing in memory.
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
