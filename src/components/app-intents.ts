import { FrameworkAppError, ERROR_CODES } from '../errors';
import { AppClient, BillingOptions, Role, Scope, Stage } from '../intents';
import { IntentKindName, IntentOf, intentKind } from './intent-kinds';

/**
 * What `.projenrc.ts` declared (options and `add*` calls, the template's first): the state the config-file
 * components render at synth time, so a declaration made after construction still lands.
 */
export class AppIntents {
  public readonly stages: Stage[] = [];
  public readonly scopes: Scope[] = [];
  public readonly appClients: AppClient[] = [];
  public readonly roles: Role[] = [];
  public billing?: BillingOptions;
  /** The infrastructure intents, by kind (`INTENT_KINDS`), in the order they were declared. */
  private readonly byKind = new Map<IntentKindName, unknown[]>();

  /** Adds `item` to `list`; a second item with the same id (maybe one of the template's) is an error. */
  public add<T>(kind: string, list: T[], item: T, id: string, idField = 'id'): void {
    if (list.some((other) => (other as Record<string, unknown>)[idField] === id)) {
      throw new FrameworkAppError(ERROR_CODES.duplicateId, `${kind}: ${idField} "${id}" is declared twice (maybe once by the template); remove one, or pick another ${idField}`);
    }
    list.push(item);
  }

  /**
   * Declares an infrastructure intent: added to its kind's list (a second id is an error), or, for a kind of one
   * intent (`auth`), in place of the one declared before.
   */
  public declare<K extends IntentKindName>(kind: K, intent: IntentOf<K>): void {
    intentKind(kind).check?.(intent);
    const list = this.byKind.get(kind) ?? [];
    this.byKind.set(kind, list);
    if (!intentKind(kind).many) list.splice(0, list.length, intent);
    else this.add(kind, list, intent, (intent as { readonly id: string }).id);
  }

  /** The declared intents of a kind (at most one for a kind of one intent). */
  public of<K extends IntentKindName>(kind: K): ReadonlyArray<IntentOf<K>> {
    return (this.byKind.get(kind) ?? []) as ReadonlyArray<IntentOf<K>>;
  }
}
