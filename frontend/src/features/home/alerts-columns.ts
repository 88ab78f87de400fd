/** The alerts list uses 1, 2 or 3 columns depending on how many alerts there are. */
export function alertColumns(count: number): 1 | 2 | 3 {
  if (count <= 1) return 1;
  if (count === 2) return 2;
  return 3;
}
