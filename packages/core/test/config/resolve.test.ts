import { expect } from 'chai';
import { ConfigError, PRESETS, PRESET_NAMES, describeResolvedConfig, getResolvedConfig, type BaseConfig, type SecurityConfig } from '../../src/index.js';
import { thrownBy } from '../helpers/temp-project.js';

const base: BaseConfig = { name: 'acme', region: 'eu-west-1', account: '123456789012', tags: { team: 'core' } };
const security: SecurityConfig = { scopes: { 'tasks:read': 'Read tasks' }, appClients: { web: { scopes: ['tasks:read'], flows: ['authorization_code'] } } };

describe('getResolvedConfig', () => {
  it('layers base, security and the preset, with each field from its source', () => {
    // When a micro environment with two overrides is resolved
    const config = getResolvedConfig(base, security, { preset: 'micro', overrides: { functions: { timeout: 20 }, logs: { retentionDays: 60 } } });
    // Then the overrides win, the rest is the preset's, and the sources say so
    expect(config).to.include({ project: 'acme', region: 'eu-west-1', account: '123456789012', preset: 'micro' });
    expect(config.tags).to.deep.equal({ team: 'core' });
    expect(config.settings.functions).to.deep.equal({ ...PRESETS.micro.functions, timeout: 20 });
    expect(config.settings.logs).to.deep.equal({ ...PRESETS.micro.logs, retentionDays: 60 });
    expect(config.settings.databases).to.deep.equal(PRESETS.micro.databases);
    const field = (p: string) => config.fields.find((f) => f.path === p);
    expect(field('functions.timeout')).to.deep.equal({ path: 'functions.timeout', value: 20, source: 'override' });
    expect(field('functions.memorySize')).to.deep.equal({ path: 'functions.memorySize', value: PRESETS.micro.functions.memorySize, source: 'preset:micro' });
    expect(field('base.region')).to.deep.include({ value: 'eu-west-1', source: 'base' });
    expect(field('security.scopes')).to.deep.include({ value: ['tasks:read'], source: 'security' });
    expect(config.security.appClients).to.have.property('web');
  });

  it('resolves roles with their scopes, and lists them as a security field', () => {
    // Given two roles over the declared scope
    const roles = { admin: { scopes: ['tasks:read'], description: 'Everything' }, member: { scopes: ['tasks:read'] } };
    // When the layers are resolved
    const config = getResolvedConfig(base, { ...security, roles }, { preset: 'free' });
    // Then the roles pass through and `fw config` shows their names
    expect(config.security.roles).to.deep.equal(roles);
    expect(config.fields.find((f) => f.path === 'security.roles')).to.deep.equal({ path: 'security.roles', value: ['admin', 'member'], source: 'security' });
    expect(getResolvedConfig(base, security, { preset: 'free' }).security.roles).to.deep.equal({});
  });

  it('rejects a malformed role: a bad name, a missing scopes list, an unknown field', () => {
    const error = thrownBy(() =>
      getResolvedConfig(base, { ...security, roles: { 'no spaces': { scopes: [] }, member: {}, admin: { scopes: [], scope: [] } } } as never, { preset: 'free' }),
    );
    expect((error as ConfigError).problems.map((p) => [p.code, p.path])).to.deep.equal([
      ['FW_ERR_CONFIG_INVALID_VALUE', 'security.roles["no spaces"]'],
      ['FW_ERR_CONFIG_MISSING_FIELD', 'security.roles.member.scopes'],
      ['FW_ERR_CONFIG_UNKNOWN_FIELD', 'security.roles.admin.scope'],
    ]);
  });

  it('lists every preset field, for every preset', () => {
    for (const preset of PRESET_NAMES) {
      const config = getResolvedConfig(base, security, { preset });
      const settingPaths = config.fields.filter((f) => f.source === `preset:${preset}`).map((f) => f.path);
      const expected = Object.entries(PRESETS[preset]).flatMap(([group, values]) => Object.keys(values).map((k) => `${group}.${k}`));
      expect(settingPaths).to.deep.equal(expected);
      expect(config.settings).to.deep.equal(PRESETS[preset]);
    }
  });

  it('defaults tags and app clients to empty', () => {
    const config = getResolvedConfig({ name: 'acme', region: 'us-east-1' }, { scopes: {} }, { preset: 'free' });
    expect(config.tags).to.deep.equal({});
    expect(config.security.appClients).to.deep.equal({});
    expect(config.fields.map((f) => f.path)).not.to.include('base.account');
  });

  it('throws one ConfigError for every problem of the three layers, under base, security and env', () => {
    const error = thrownBy(() =>
      getResolvedConfig({ name: 'acme' } as BaseConfig, { scopes: {}, appClients: { web: { scopes: ['x'], flows: ['client_credentials'] } } }, { preset: 'free', overrides: { network: { natGateways: 9 } } }),
    );
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => [p.code, p.path])).to.deep.equal([
      ['FW_ERR_CONFIG_MISSING_FIELD', 'base.region'],
      ['FW_ERR_CONFIG_INVALID_VALUE', 'env.overrides.network.natGateways'],
      ['FW_ERR_CONFIG_UNDECLARED_SCOPE', 'security.appClients.web.scopes[0]'],
    ]);
  });

  it('never throws a TypeError for garbage layers', () => {
    for (const garbage of [null, undefined, 5, 'x', [], [1], () => 1]) {
      expect(() => getResolvedConfig(garbage as never, garbage as never, garbage as never)).to.throw(ConfigError);
    }
  });
});

describe('describeResolvedConfig', () => {
  it('prints every field with its value and where it came from', () => {
    // Given a medium environment with one override
    const config = getResolvedConfig(base, security, { preset: 'medium', overrides: { functions: { memorySize: 1536 } } });
    // When it is described
    const lines = describeResolvedConfig(config).split('\n');
    // Then a header, a rule, and one aligned line per field
    expect(lines[0]).to.match(/^field\s+value\s+source$/);
    expect(lines[1]).to.match(/^-+ {2}-+ {2}-+$/);
    expect(lines).to.have.length(2 + config.fields.length);
    expect(lines.find((l) => l.startsWith('functions.memorySize '))).to.match(/^functions\.memorySize\s+1536\s+override$/);
    expect(lines.find((l) => l.startsWith('functions.timeout '))).to.match(/^functions\.timeout\s+30\s+preset:medium$/);
    expect(lines.find((l) => l.startsWith('databases.engine '))).to.match(/^databases\.engine\s+"aurora-serverless-v2"\s+preset:medium$/);
    expect(lines.find((l) => l.startsWith('base.name '))).to.match(/^base\.name\s+"acme"\s+base$/);
    // Aligned: the value column starts at the same place on every line
    const valueColumn = lines[1]!.indexOf('  -') + 2;
    for (const line of lines.slice(2)) expect(line.slice(valueColumn - 2, valueColumn + 1), line).to.match(/^ {2}\S$/);
  });
});
