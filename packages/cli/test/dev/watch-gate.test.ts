import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileStamps, FolderListing, Freshness, WatchGate, eventsReliableFor } from '../../src/dev/freshness/index.js';
import { watchProject } from '../../src/dev/watch.js';

const log = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('WatchGate (requests stat only what changed since the folder watches last spoke)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-watch-gate-'));
    fs.mkdirSync(path.join(dir, 'src', 'routes'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', 'a.ts'), 'a');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('skips the stat of a file in a watched folder found unchanged at the current count, and of no other', () => {
    const file = path.join(dir, 'src', 'a.ts');
    const gate = new WatchGate();
    gate.watching(path.join(dir, 'src'));
    gate.trust();
    const stamps = new FileStamps([file]);
    // A first check stats it and vouches for it at this count
    expect(stamps.changed(undefined, gate)).to.equal(undefined);
    // When the file changes with no event counted (as if the event were not delivered yet)
    fs.writeFileSync(file, 'a changed, longer');
    // Then a check at the same count relies on the watch
    expect(stamps.changed(undefined, gate)).to.equal(undefined);
    // And once an event is counted, the stat tells
    gate.changed();
    expect(stamps.changed(undefined, gate)).to.equal(file);
    // Without the gate, or with it distrusted, or for a folder not watched, it is always stat-checked
    expect(stamps.changed()).to.equal(file);
    const other = new FileStamps([file]);
    expect(other.changed(undefined, gate)).to.equal(undefined);
    fs.writeFileSync(file, 'changed again, longer still');
    gate.distrust();
    expect(other.changed(undefined, gate)).to.equal(file);
    const unwatched = new WatchGate();
    unwatched.trust();
    const third = new FileStamps([file]);
    expect(third.changed(undefined, unwatched)).to.equal(undefined);
    fs.writeFileSync(file, 'x');
    expect(third.changed(undefined, unwatched)).to.equal(file);
  });

  it('keeps stat-checking a file outside the watches however often the set is checked at one count', () => {
    const watched = path.join(dir, 'src', 'a.ts');
    const outside = path.join(dir, 'b.ts');
    fs.writeFileSync(outside, 'b');
    const gate = new WatchGate();
    gate.watching(path.join(dir, 'src'));
    gate.trust();
    const both = new FileStamps([watched, outside]);
    const alone = new FileStamps([watched]);
    // Checked several times at one count (the set whose files are all watched is then vouched for as a whole)
    for (let i = 0; i < 3; i++) {
      expect(both.changed(undefined, gate)).to.equal(undefined);
      expect(alone.changed(undefined, gate)).to.equal(undefined);
    }
    // When the file outside the watches changes with no event counted, the next check still sees it
    fs.writeFileSync(outside, 'b changed, longer');
    expect(both.changed(undefined, gate)).to.equal(outside);
    // And a save in a watched folder is seen once its event is counted, by the set vouched for as a whole too
    fs.writeFileSync(watched, 'a changed, longer');
    expect(alone.changed(undefined, gate)).to.equal(undefined);
    gate.changed();
    expect(alone.changed(undefined, gate)).to.equal(watched);
    // A folder no longer watched is stat-checked again
    const again = new FileStamps([watched]);
    for (let i = 0; i < 3; i++) expect(again.changed(undefined, gate)).to.equal(undefined);
    fs.writeFileSync(watched, 'a changed once more, longer still');
    gate.unwatching(path.join(dir, 'src'));
    expect(again.changed(undefined, gate)).to.equal(watched);
  });

  it('checks a discovery listing vouched for as a whole again once the count moves', () => {
    const routes = path.join(dir, 'src', 'routes');
    const gate = new WatchGate();
    gate.watching(routes);
    gate.trust();
    const listing = new FolderListing([routes]);
    for (let i = 0; i < 3; i++) expect(listing.changed(gate)).to.equal(undefined);
    fs.writeFileSync(path.join(routes, 'get.ts'), 'export const main = 1;');
    expect(listing.changed(gate)).to.equal(undefined);
    gate.distrust();
    expect(listing.changed(gate)).to.equal(routes);
  });

  it('skips a watched discovery folder found unchanged at the current count, and sees a new route after an event', () => {
    const routes = path.join(dir, 'src', 'routes');
    const gate = new WatchGate();
    gate.watching(routes);
    gate.trust();
    const listing = new FolderListing([routes]);
    expect(listing.changed(gate)).to.equal(undefined);
    fs.mkdirSync(path.join(routes, 'tasks'));
    fs.writeFileSync(path.join(routes, 'tasks', 'get.ts'), 'export const main = 1;');
    expect(listing.changed(gate)).to.equal(undefined);
    gate.changed();
    expect(listing.changed(gate)).to.equal(routes);
  });

  it('is raised by the project watches as a save happens, before the request after it is checked', async function () {
    if (!eventsReliableFor(dir)) this.skip(); // change events are relied on only on Linux, on a local file system
    const gate = new WatchGate();
    const watcher = watchProject(dir, { onChange: async () => undefined, log }, gate);
    gate.trust();
    try {
      expect(gate.covers(path.join(dir, 'src'))).to.equal(true);
      expect(gate.covers(path.join(dir, 'src', 'routes'))).to.equal(true);
      // A Freshness whose app model is the file src/a.ts, checked through the gate
      let reloads = 0;
      const stamps = { current: new FileStamps([path.join(dir, 'src', 'a.ts')]) };
      const freshness = new Freshness({
        appChange: (g) => stamps.current.changed(undefined, g),
        handlerChange: () => undefined,
        reloadApp: async () => {
          reloads++;
          stamps.current = new FileStamps([path.join(dir, 'src', 'a.ts')]);
        },
        rebuildHandlers: async () => undefined,
      });
      freshness.useWatches(gate);
      await freshness.beforeRequest({});
      expect(reloads).to.equal(0);
      for (let i = 0; i < 20; i++) {
        // When the file is saved, then a request is checked at once (in place, or renamed over)
        if (i % 2) fs.writeFileSync(path.join(dir, 'src', 'a.ts'), `save ${i}`);
        else {
          fs.writeFileSync(path.join(dir, 'src', 'a.tmp'), `save ${i}`);
          fs.renameSync(path.join(dir, 'src', 'a.tmp'), path.join(dir, 'src', 'a.ts'));
        }
        await freshness.beforeRequest({});
        // Then that request's check saw the save
        expect(reloads, `save ${i}`).to.equal(i + 1);
        // And a request with no save in between reloads nothing
        await freshness.beforeRequest({});
        expect(reloads).to.equal(i + 1);
      }
    } finally {
      await watcher.close();
    }
    expect(gate.trusted).to.equal(false);
  });
});
