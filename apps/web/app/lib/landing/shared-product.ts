import picture from '../../assets/shared-product.svg';

/**
 * The piece a product-share link shows (the viralProductShare variant, spec §3): a member
 * shared it, so the page shows it — picture, brand, name and prices — not a placeholder (UX
 * review of 27 Nov, row 16). The front end has no product catalogue to ask (spec §7 names no
 * product call), so the piece is this one, its picture an illustration shipped with the app
 * (ADR 055); the name is translated in the catalogs, the brand is a name.
 */
export const SHARED_PRODUCT = {
  brand: 'Maison Aurèle',
  /** Message id of the piece's name. */
  name: 'productShare.product.name',
  picture,
  /** Euros. */
  memberPrice: 349,
  retailPrice: 890,
} as const;
