/** What the cache tells the user when memory or the store is full (Romanian first, then English). */

const mb = (n: number) => `${Math.round(n / 1048576)} MB`;

export function memoryFull(evicted: number, maxBytes: number, maxEntries: number): string {
  return (
    `Cache-ul din memorie e plin (${mb(maxBytes)} / ${maxEntries} răspunsuri): ${evicted} răspunsuri folosite cel mai demult au ieșit din memorie: se citesc din nou din stocarea add-in-ului când e nevoie, iar cele pe care nu le mai are se cer din nou. / ` +
    `The in-memory cache is full (${mb(maxBytes)} / ${maxEntries} answers): the ${evicted} least recently used answers left memory: they are read back from the add-in's storage when needed, and those it no longer holds are fetched again.`
  );
}

export function storeFull(where: string, evicted: number): string {
  return (
    `Cache-ul salvat în ${where} e plin: ${evicted} răspunsuri folosite cel mai demult nu mai sunt păstrate după închidere (rămân în memorie până atunci). / ` +
    `The cache saved in ${where} is full: the ${evicted} least recently used answers are no longer kept after closing (they stay in memory until then).`
  );
}
