import { useId, useRef, type ReactNode } from 'react';

interface TabsProps {
  label: string;
  tabs: { key: string; label: string }[];
  selected: number;
  onSelect: (index: number) => void;
  children: ReactNode;
}

/** WAI-ARIA tabs with arrow-key navigation; the panel content is the selected tab's children. */
export function Tabs({ label, tabs, selected, onSelect, children }: TabsProps) {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const move = (index: number) => {
    const next = (index + tabs.length) % tabs.length;
    onSelect(next);
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
  };
  return (
    <div className="tabs">
      <div ref={list} role="tablist" aria-label={label} className="tabs__list">
        {tabs.map((tab, index) => (
          <button
            key={tab.key}
            type="button"
            role="tab"
            id={`${id}-tab-${index}`}
            aria-selected={index === selected}
            aria-controls={`${id}-panel`}
            tabIndex={index === selected ? 0 : -1}
            className={`tabs__tab${index === selected ? ' tabs__tab--selected' : ''}`}
            onClick={() => onSelect(index)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowRight') move(index + 1);
              if (e.key === 'ArrowLeft') move(index - 1);
            }}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${selected}`}
        className="tabs__panel"
      >
        {children}
      </div>
    </div>
  );
}
