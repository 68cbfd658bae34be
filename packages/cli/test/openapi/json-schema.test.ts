import { toJsonSchema as valibotToJsonSchema } from '@valibot/to-json-schema';
import { expect } from 'chai';
import * as v from 'valibot';
import { z } from 'zod';
import { operationIdOf, toJsonSchema } from '../../src/openapi/index.js';
import { place } from '../../src/openapi/openapi-document.js';

const valibot = { valibot: (schema: unknown) => valibotToJsonSchema(schema as Parameters<typeof valibotToJsonSchema>[0], { target: 'draft-2020-12' }) };

describe('route schemas as JSON Schema (toJsonSchema)', () => {
  it('a zod schema through the Standard JSON Schema interface: the input side (what the client sends), no $schema', () => {
    const { schema, problem } = toJsonSchema(z.object({ title: z.string().trim().min(1), count: z.string().transform(Number), status: z.enum(['open', 'done']).default('open') }));
    expect(problem).to.equal(undefined);
    expect(schema).to.not.have.property('$schema');
    expect(schema).to.deep.include({ type: 'object', required: ['title', 'count'] });
    expect(schema.properties).to.deep.include({ title: { type: 'string', minLength: 1 }, count: { type: 'string' } });
  });

  it('a zod field JSON Schema cannot express (a Date): only that field is left open, and the description says why', () => {
    const { schema, problem } = toJsonSchema(z.object({ due: z.date(), title: z.string() }));
    expect(problem).to.match(/Date/);
    expect(schema.properties).to.deep.equal({ due: {}, title: { type: 'string' } });
    expect(schema.description).to.match(/^Partly documented: .*Date/);
  });

  it('a valibot schema (no Standard JSON Schema) through its official converter, given as the vendor converter', () => {
    const { schema, problem } = toJsonSchema(v.object({ title: v.pipe(v.string(), v.minLength(1)), pair: v.tuple([v.string(), v.number()]) }), valibot);
    expect(problem).to.equal(undefined);
    expect(schema).to.deep.include({ type: 'object', required: ['title', 'pair'] });
    expect((schema.properties as Record<string, unknown>).pair).to.deep.include({ prefixItems: [{ type: 'string' }, { type: 'number' }] });
  });

  it('a valibot schema without its converter installed: {} with a description naming the package to add', () => {
    const { schema, problem } = toJsonSchema(v.object({ title: v.string() }));
    expect(problem).to.match(/@valibot\/to-json-schema/);
    expect(Object.keys(schema)).to.deep.equal(['description']);
    expect(schema.description).to.match(/^Not documented: .*valibot/);
  });

  it('a converter that throws (a valibot Date) never crashes the document: {} with the converter\'s reason', () => {
    const { schema, problem } = toJsonSchema(v.object({ due: v.date() }), valibot);
    expect(problem).to.match(/date/);
    expect(Object.keys(schema)).to.deep.equal(['description']);
  });

  it('something that is no Standard Schema, and a library whose jsonSchema.input throws on any input: {} with a description', () => {
    expect(toJsonSchema({ parse: () => 1 }).schema.description).to.match(/not a Standard Schema/);
    expect(toJsonSchema(null).problem).to.match(/not a Standard Schema/);
    const broken = { '~standard': { version: 1, vendor: 'odd', validate: () => ({ value: 1 }), jsonSchema: { input: () => { throw new Error('cannot'); } } } };
    expect(toJsonSchema(broken)).to.deep.equal({ schema: { description: 'Not documented: this schema cannot be converted to JSON Schema (cannot).' }, problem: 'cannot' });
  });

  it('a recursive schema ($ref "#") becomes a component whose references point into it, not at the document root', () => {
    const node: z.ZodType = z.object({ name: z.string(), get children() { return z.array(node); } });
    const components: Record<string, Record<string, unknown>> = {};
    const { use, shape } = place(toJsonSchema(node).schema, 'postTree.body', components);
    expect(use).to.deep.equal({ $ref: '#/components/schemas/postTree.body' });
    expect(components['postTree.body']).to.equal(shape);
    expect(JSON.stringify(shape)).to.include('"$ref":"#/components/schemas/postTree.body"').and.not.include('"$ref":"#"');
    const flat = place({ type: 'string' }, 'x', components);
    expect(flat.use).to.deep.equal({ type: 'string' });
  });

  it('operation ids: the method and the path\'s words, parameters as By<Name>', () => {
    expect(operationIdOf({ method: 'GET', path: '/tasks/{id}/attachments' })).to.equal('getTasksByIdAttachments');
    expect(operationIdOf({ method: 'POST', path: '/' })).to.equal('postRoot');
    expect(operationIdOf({ method: 'GET', path: '/files/{rest+}' })).to.equal('getFilesByRest');
    expect(operationIdOf({ method: 'DELETE', path: '/user-settings/v2.api' })).to.equal('deleteUserSettingsV2Api');
  });
});
