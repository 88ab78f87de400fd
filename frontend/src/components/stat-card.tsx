import type { ReactNode } from 'react';

export function StatCard({
  label,
  value,
  tone,
}: {
  label: string;
  value: ReactNode;
  tone?: 'warning' | 'danger';
}) {
  return (
    <section className={`stat-card${tone ? ` stat-card--${tone}` : ''}`} aria-label={label}>
      <p className="stat-card__label">{label}</p>
      <p className="stat-card__value">{value}</p>
    </section>
  );
}
