import { SqlUsageError } from '../errors.js';

/**
 * Marks fragments built by this module. A registered symbol (not a private field) so two copies of the package in one
 * bundle still recognize each other's fragments; JSON and user input can never carry a symbol key, so a value from a
 * request can never pose as a fragment.
 */
const FRAGMENT = Symbol.for('@framework/data/sql-fragment');

/** A compiled statement in `pg`'s shape: text with `$1..$n` placeholders and the values bound to them. */
export interface CompiledQuery {
  readonly text: string;
  readonly values: unknown[];
}

/**
 * A piece of SQL: trusted text segments with values between them (`segments.length === values.length + 1`). Values
 * are only ever sent as bind parameters; the text comes from template literals written in source code, from
 * identifier quoting, or from `sql.unsafeRaw`.
 */
export class SqlFragment {
  public readonly [FRAGMENT] = true;
  /** @internal */
  public readonly segments: readonly string[];
  /** @internal */
  public readonly values: readonly unknown[];

  /** @internal Use the `sql` tag and its helpers. */
  constructor(segments: readonly string[], values: readonly unknown[]) {
    this.segments = segments;
    this.values = values;
  }

  /** The statement with `$n` placeholders, numbered from 1. */
  public compile(): CompiledQuery {
    let text = this.segments[0] ?? '';
    for (let i = 0; i < this.values.length; i++) text += `$${i + 1}${this.segments[i + 1] ?? ''}`;
    return { text, values: [...this.values] };
  }

  /** The statement text (placeholders, never values): what logs and error messages show. */
  public toString(): string {
    return this.compile().text;
  }
}

export function isSqlFragment(value: unknown): value is SqlFragment {
  return typeof value === 'object' && value !== null && (value as { [FRAGMENT]?: unknown })[FRAGMENT] === true;
}

/** Builds fragments by appending text and values; nested fragments are spliced in, everything else is a value. */
export class FragmentBuilder {
  private readonly segments: string[] = [''];
  private readonly values: unknown[] = [];

  public text(text: string): this {
    this.segments[this.segments.length - 1] += text;
    return this;
  }

  public value(value: unknown): this {
    if (isSqlFragment(value)) return this.fragment(value);
    if (typeof value === 'function' || typeof value === 'symbol') {
      throw new SqlUsageError(`A ${typeof value} cannot be a SQL value. Pass a string, number, boolean, Date, Buffer, array, object (as JSON) or null.`);
    }
    this.values.push(value === undefined ? null : value);
    this.segments.push('');
    return this;
  }

  public fragment(fragment: SqlFragment): this {
    const [first = '', ...rest] = fragment.segments;
    this.text(first);
    for (let i = 0; i < fragment.values.length; i++) {
      this.values.push(fragment.values[i]);
      this.segments.push(rest[i] ?? '');
    }
    return this;
  }

  public build(): SqlFragment {
    return new SqlFragment([...this.segments], [...this.values]);
  }
}
