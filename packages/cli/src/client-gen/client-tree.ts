import type { DiscoveredRoute } from '@framework/core';
import { GenerateError } from '../errors.js';

/** What the client generator needs of a route. */
export type ClientRoute = Pick<DiscoveredRoute, 'method' | 'path' | 'file'>;

/** A route method of the client: `post` on `client.tasks`. */
export interface ClientMethod {
  /** `post`. */
  readonly name: string;
  readonly route: ClientRoute;
}

/** A path parameter below a node: `byId(id)` for `{id}`, joined with every `/` for a catch-all `{rest+}`. */
export interface ClientParam {
  /** `byId`. */
  readonly accessor: string;
  /** `id`. */
  readonly param: string;
  readonly catchAll: boolean;
  readonly node: ClientNode;
}

/** One path position: its methods, its fixed children by property name, its parameters. */
export interface ClientNode {
  readonly methods: ClientMethod[];
  readonly children: Map<string, { readonly segment: string; readonly node: ClientNode }>;
  readonly params: ClientParam[];
}

const newNode = (): ClientNode => ({ methods: [], children: new Map(), params: [] });

/** A folder name as a property: `user-profiles` → `userProfiles`; kept as written (quoted) when that is no identifier. */
export function propertyName(segment: string): string {
  const camel = segment.replace(/[-._~]+([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/[-._~]+$/, '');
  return /^[A-Za-z_$][\w$]*$/.test(camel) ? camel : segment;
}

const capitalize = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * The client's shape from the routes: one node per path position, a method per route file. Two things that would get
 * one property name at one position (a folder `get` beside `get.ts`, folders `user-id` and `userId`) are an error
 * naming both files, since a generated client must not silently drop a route.
 */
export function clientTree(routes: readonly ClientRoute[]): ClientNode {
  const root = newNode();
  const owners = new WeakMap<ClientNode, Map<string, string>>();
  const claim = (node: ClientNode, name: string, what: string) => {
    let names = owners.get(node);
    if (!names) owners.set(node, (names = new Map()));
    const other = names.get(name);
    if (other !== undefined && other !== what) {
      throw new GenerateError('FW_ERR_GENERATE_CLIENT_NAME_CLASH', `the client would name both ${other} and ${what} "${name}"; rename one of the two folders or files`);
    }
    names.set(name, what);
  };
  const sorted = [...routes].sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path < b.path ? -1 : 1));
  for (const route of sorted) {
    let node = root;
    const segments = route.path.split('/').filter(Boolean);
    let folder = '';
    for (const segment of segments) {
      folder += `/${segment}`;
      const param = /^\{(.+?)(\+?)\}$/.exec(segment);
      if (param) {
        const accessor = `by${capitalize(param[1]!)}`;
        claim(node, accessor, `the parameter folder of ${folder}`);
        let entry = node.params.find((p) => p.accessor === accessor);
        if (!entry) node.params.push((entry = { accessor, param: param[1]!, catchAll: param[2] === '+', node: newNode() }));
        node = entry.node;
      } else {
        const name = propertyName(segment);
        claim(node, name, `the folder of ${folder}`);
        let entry = node.children.get(name);
        if (!entry) node.children.set(name, (entry = { segment, node: newNode() }));
        node = entry.node;
      }
    }
    const name = route.method.toLowerCase();
    claim(node, name, route.file);
    node.methods.push({ name, route });
  }
  return root;
}
