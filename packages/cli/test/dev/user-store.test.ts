import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { hashPassword, usersFilePath, UserStore, verifyPassword } from '../../src/dev/auth/user-store.js';

describe('the dev issuer\'s user store (.fw/dev/auth/users.json)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-users-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('hashes with scrypt and a random salt: two hashes of one password differ, both verify, another password does not', async () => {
    const [a, b] = [await hashPassword('correct horse'), await hashPassword('correct horse')];
    expect(a).to.match(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/).and.not.equal(b);
    expect(await verifyPassword('correct horse', a)).to.equal(true);
    expect(await verifyPassword('correct horse', b)).to.equal(true);
    expect(await verifyPassword('correct hors', a)).to.equal(false);
    expect(await verifyPassword('correct horse', 'plain-text')).to.equal(false);
  });

  it('seeds users, signs them in by password, and keeps them across a reopen', async () => {
    const store = UserStore.open(dataDir);
    await store.seed([{ username: 'mia', password: 'member-password', roles: ['member'] }]);
    const mia = await store.authenticate('mia', 'member-password');
    expect(mia).to.deep.include({ username: 'mia', roles: ['member'], seeded: true });
    expect(await store.authenticate('mia', 'wrong-password')).to.equal(undefined);
    expect(await store.authenticate('nobody', 'member-password')).to.equal(undefined);
    const reopened = UserStore.open(dataDir);
    expect(reopened.bySub(mia!.sub)?.username).to.equal('mia');
  });

  it('a seeded user follows the config on the next start (password and roles), keeping its sub; the file is replaced whole', async () => {
    await UserStore.open(dataDir).seed([{ username: 'mia', password: 'member-password', roles: ['member'] }]);
    const before = JSON.parse(fs.readFileSync(usersFilePath(dataDir), 'utf8')) as { users: Array<{ sub: string }> };
    const store = UserStore.open(dataDir);
    await store.seed([{ username: 'mia', password: 'new-password-2', roles: ['admin'] }]);
    const mia = await store.authenticate('mia', 'new-password-2');
    expect(mia).to.deep.include({ sub: before.users[0]!.sub, roles: ['admin'] });
    expect(await store.authenticate('mia', 'member-password')).to.equal(undefined);
    expect(fs.readdirSync(path.dirname(usersFilePath(dataDir)))).to.deep.equal(['users.json']);
    expect(fs.statSync(usersFilePath(dataDir)).mode & 0o777).to.equal(0o600);
  });

  it('a seeded user keeps the tenant the config gives it, and follows a change of it', async () => {
    await UserStore.open(dataDir).seed([{ username: 'ten', password: 'member-password', roles: ['member'], tenant: 'acme' }]);
    expect(UserStore.open(dataDir).byUsername('ten')).to.deep.include({ tenant: 'acme' });
    const store = UserStore.open(dataDir);
    await store.seed([{ username: 'ten', password: 'member-password', roles: ['member'], tenant: 'globex' }]);
    expect(store.byUsername('ten')).to.deep.include({ tenant: 'globex' });
  });

  it('leaves a user that seeding did not create alone, even when the config names the same username', async () => {
    const file = usersFilePath(dataDir);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const own = { sub: '00000000-0000-4000-8000-000000000001', username: 'mia', roles: ['admin'], passwordHash: await hashPassword('her-own-password'), seeded: false };
    fs.writeFileSync(file, JSON.stringify({ version: 1, users: [own] }));
    const store = UserStore.open(dataDir);
    await store.seed([{ username: 'mia', password: 'member-password', roles: ['member'] }]);
    expect(await store.authenticate('mia', 'her-own-password')).to.deep.include({ roles: ['admin'], seeded: false });
  });

  it('a users file that is not one stops the start with FW_ERR_DEV_ENGINE_START, naming the file and the fix; a bad hash matches nothing', async () => {
    const file = usersFilePath(dataDir);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{ not json');
    expect(() => UserStore.open(dataDir)).to.throw(/users file .*users\.json cannot be read .*delete it and start again/).with.property('code', 'FW_ERR_DEV_ENGINE_START');
    expect(await verifyPassword('x', 'scrypt$3$8$1$c2FsdA$aGFzaA')).to.equal(false);
  });
});
