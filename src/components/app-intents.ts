import { FrameworkAppError, ERROR_CODES } from '../errors';
import { AppClient, AuthIntent, BillingOptions, CacheIntent, DatabaseIntent, FunctionIntent, NotifyIntent, QueueIntent, Role, ScheduleIntent, Scope, Stage, StorageIntent, WebSocketIntent } from '../intents';

/**
 * What `.projenrc.ts` declared (options and `add*` calls, the template's first): the state the config-file
 * components render at synth time, so a declaration made after construction still lands.
 */
export class AppIntents {
  public readonly stages: Stage[] = [];
  public readonly scopes: Scope[] = [];
  public readonly appClients: AppClient[] = [];
  public readonly roles: Role[] = [];
  public auth?: AuthIntent;
  public readonly functions: FunctionIntent[] = [];
  public readonly queues: QueueIntent[] = [];
  public readonly schedules: ScheduleIntent[] = [];
  public readonly databases: DatabaseIntent[] = [];
  public readonly storage: StorageIntent[] = [];
  public readonly caches: CacheIntent[] = [];
  public ws?: WebSocketIntent;
  public notify?: NotifyIntent;
  public billing?: BillingOptions;

  /** Adds `item` to `list`; a second item with the same id (maybe one of the template's) is an error. */
  public add<T>(kind: string, list: T[], item: T, id: string, idField = 'id'): void {
    if (list.some((other) => (other as Record<string, unknown>)[idField] === id)) {
      throw new FrameworkAppError(ERROR_CODES.duplicateId, `${kind}: ${idField} "${id}" is declared twice (maybe once by the template); remove one, or pick another ${idField}`);
    }
    list.push(item);
  }
}
