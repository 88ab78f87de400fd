/** SPEC §5 date input: dd-mm-yyyy with optional hh:mm; anything invalid yields null. */
export function parseDateInput(text: string): Date | null {
  const match = /^(\d{1,2})-(\d{1,2})-(\d{4})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const [, d, m, y, hh, mm] = match;
  const day = Number(d);
  const month = Number(m);
  const year = Number(y);
  const hour = hh === undefined ? 0 : Number(hh);
  const minute = mm === undefined ? 0 : Number(mm);
  if (month < 1 || month > 12 || day < 1) return null;
  if (day > daysInMonth(year, month)) return null;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return null;
  return new Date(year, month - 1, day, hour, minute);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(year, month, 0).getDate();
}

const pad = (n: number): string => String(n).padStart(2, '0');

export function formatDateInput(date: Date, withTime = false): string {
  const day = `${pad(date.getDate())}-${pad(date.getMonth() + 1)}-${date.getFullYear()}`;
  return withTime ? `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}` : day;
}
