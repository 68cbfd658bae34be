/**
 * The text for a locale among translations: the exact tag (`pt-BR`), then its language (`pt`), then `fallback`
 * (the template's default locale), then the first one given. Tags compare case-insensitively, as BCP 47 says.
 */
export function localize<T>(locale: string | undefined, translations: Readonly<Record<string, T>>, fallback = 'en'): T {
  const byTag = new Map(Object.entries(translations).map(([tag, value]) => [tag.toLowerCase(), value]));
  const wanted = (locale ?? '').toLowerCase();
  const found = byTag.get(wanted) ?? byTag.get(wanted.split('-')[0]!) ?? byTag.get(fallback.toLowerCase()) ?? byTag.values().next().value;
  if (found === undefined) throw new TypeError('localize: no translations given');
  return found;
}
