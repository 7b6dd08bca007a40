declare module 'virtual:acq-cmp-translations' {
  import type { Translation } from 'vanilla-cookieconsent';
  const translations: Record<string, Translation>;
  export default translations;
}
