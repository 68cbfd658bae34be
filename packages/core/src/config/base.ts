import * as c from './codec.js';

/** Project identity (`config/base.ts`). */
export interface BaseConfig {
  /** Project name: lowercase letters, digits and `-`, starting with a letter; prefixes every deployed name. */
  readonly name: string;
  /** Cloud region, e.g. `eu-west-1`. */
  readonly region: string;
  /** Account to deploy to (12 digits). @default - the account of the credentials used to deploy */
  readonly account?: string;
  /** Tags put on every deployed resource. @default {} */
  readonly tags?: Readonly<Record<string, string>>;
}

export const PROJECT_NAME = /^[a-z][a-z0-9-]{0,30}[a-z0-9]$/;
export const STAGE_NAME = /^[a-z][a-z0-9-]{0,19}$/;

export const baseConfigCodec = c.struct<BaseConfig>('a base config { name, region }', {
  name: c.required(c.pattern('a project name of 2 to 32 lowercase letters, digits or "-", starting with a letter', PROJECT_NAME)),
  region: c.required(c.pattern('a region such as "eu-west-1"', /^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d$/)),
  account: c.optional(c.pattern('a 12-digit account id', /^\d{12}$/)),
  tags: c.optional(c.record(c.pattern('a tag key', /^[\w.:/=+@ -]{1,128}$/), c.text(256))),
});
