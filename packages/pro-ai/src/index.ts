// @framework-pro/ai: being built (see README). Exports are added with the code they name.
export {};
