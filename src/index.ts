/**
 * `@framework/projen`: the projen project type of framework apps. `FrameworkApp` arrives with its issue; this
 * module already carries the release line so templates and generated projects can pin matching packages.
 */
export class FrameworkRelease {
  /** Version of the `@framework/*` packages this project type generates projects for. */
  public static readonly VERSION: string = '0.1.0';
}
