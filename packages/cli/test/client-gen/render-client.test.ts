import { expect } from 'chai';
import { renderClient, type ClientRoute } from '../../src/client-gen/index.js';
import { GenerateError } from '../../src/errors.js';

const route = (method: string, path: string, file: string): ClientRoute => ({ method: method as ClientRoute['method'], path, file });

/** A route tree with a root route, parameters, nested routes under a parameter, a catch-all and every method. */
const ROUTES: ClientRoute[] = [
  route('GET', '/', 'src/routes/get.ts'),
  route('GET', '/tasks', 'src/routes/tasks/get.ts'),
  route('POST', '/tasks', 'src/routes/tasks/post.ts'),
  ...['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].map((m) => route(m, '/tasks/{id}', `src/routes/tasks/[id]/${m.toLowerCase()}.ts`)),
  route('GET', '/tasks/{id}/attachments', 'src/routes/tasks/[id]/attachments/get.ts'),
  route('DELETE', '/tasks/{id}/attachments/{name}', 'src/routes/tasks/[id]/attachments/[name]/delete.ts'),
  route('GET', '/files/{path+}', 'src/routes/files/[...path]/get.mts'),
  route('GET', '/user-profiles/me', 'src/routes/user-profiles/me/get.ts'),
];

/** The generated object literal only, without comment lines. */
const body = (text: string) =>
  text
    .slice(text.indexOf('  return {'), text.indexOf('\n}\n'))
    .split('\n')
    .filter((line) => !line.trim().startsWith('/**'))
    .join('\n');

describe('fw gen client: the generated module', () => {
  it('has a property per path position, a method per route file and a function per path parameter', () => {
    const text = renderClient(ROUTES, 'src');
    expect(body(text)).to.equal(
      [
        '  return {',
        "    get: t.call<typeof R1>('GET', '/'),",
        '    files: {',
        '      byPath: (path: string | number) => {',
        '        const p0 = `/files/${pathSegments(path)}`;',
        '        return {',
        "          get: t.call<typeof R0>('GET', p0),",
        '        };',
        '      },',
        '    },',
        '    tasks: {',
        "      get: t.call<typeof R10>('GET', '/tasks'),",
        "      post: t.bodyCall<typeof R11>('POST', '/tasks'),",
        '      byId: (id: string | number) => {',
        '        const p0 = `/tasks/${pathSegment(id)}`;',
        '        return {',
        "          delete: t.call<typeof R4>('DELETE', p0),",
        "          get: t.call<typeof R5>('GET', p0),",
        "          head: t.call<typeof R6>('HEAD', p0),",
        "          options: t.call<typeof R7>('OPTIONS', p0),",
        "          patch: t.bodyCall<typeof R8>('PATCH', p0),",
        "          put: t.bodyCall<typeof R9>('PUT', p0),",
        '          attachments: {',
        "            get: t.call<typeof R3>('GET', `${p0}/attachments`),",
        '            byName: (name: string | number) => {',
        '              const p1 = `${p0}/attachments/${pathSegment(name)}`;',
        '              return {',
        "                delete: t.call<typeof R2>('DELETE', p1),",
        '              };',
        '            },',
        '          },',
        '        };',
        '      },',
        '    },',
        '    userProfiles: {',
        '      me: {',
        "        get: t.call<typeof R12>('GET', '/user-profiles/me'),",
        '      },',
        '    },',
        '  };',
      ].join('\n'),
    );
  });

  it("imports each route's main as a type only, by the name its compiled file has, relative to the client's folder", () => {
    const text = renderClient(ROUTES, 'src');
    expect(text).to.contain("import { createTransport, pathSegments, pathSegment, type ClientOptions } from '@framework/runtime/client';");
    expect(text).to.contain("import type { main as R0 } from './routes/files/[...path]/get.mjs';");
    expect(text).to.contain("import type { main as R2 } from './routes/tasks/[id]/attachments/[name]/delete.js';");
    expect(renderClient(ROUTES, 'web/api')).to.contain("import type { main as R1 } from '../../src/routes/get.js';");
    expect(text.match(/^import /gm)).to.have.length(ROUTES.length + 1);
  });

  it('is the same text whatever order the routes come in', () => {
    expect(renderClient([...ROUTES].reverse(), 'src')).to.equal(renderClient(ROUTES, 'src'));
  });

  it('refuses two routes that would get one property name, naming both', () => {
    const clash = (routes: ClientRoute[]) => {
      try {
        renderClient(routes, 'src');
      } catch (error) {
        expect(error).to.be.instanceOf(GenerateError);
        expect((error as GenerateError).code).to.equal('FW_ERR_GENERATE_CLIENT_NAME_CLASH');
        return (error as Error).message;
      }
      return expect.fail('no error');
    };
    expect(clash([route('GET', '/a/get', 'src/routes/a/get/get.ts'), route('GET', '/a', 'src/routes/a/get.ts')])).to.contain('src/routes/a/get.ts').and.contain('/a/get');
    expect(clash([route('GET', '/user-id', 'src/routes/user-id/get.ts'), route('GET', '/userId', 'src/routes/userId/get.ts')])).to.contain('/user-id').and.contain('/userId');
    expect(clash([route('GET', '/f/{id}', 'src/routes/f/[id]/get.ts'), route('PUT', '/f/{id+}', 'src/routes/f/[...id]/put.ts')])).to.contain('byId');
  });
});
