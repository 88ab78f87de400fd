import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';
import { initI18n } from '../i18n';

// jsdom lacks these; react-router uses them
Object.assign(globalThis, { TextEncoder, TextDecoder });

if (typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

initI18n();

// jsdom has no CSS.supports; Highcharts asks it while loading (the documents page's chart)
const css = ((globalThis as { CSS?: { supports?: unknown } }).CSS ??= {});
css.supports ??= () => false;
