/**
 * The app's own logo (a speech bubble on a rounded square), drawn in the event's colour: shown
 * while the organiser has set no logo of their own, in the headers, on the join page and as the
 * page's icon. The server answers it at an address that names the colour (`/logo/4c6ef5.svg`),
 * so a colour change is a new address: an open page takes it at once, and each address is
 * cached for good. `public/logo.svg` is the same picture in the default colour, for the pages
 * that do not know the event's colour (the API reference).
 */

/** Where the logo in `primaryColor` (`#rrggbb`) is answered. */
export const defaultLogoUrl = (primaryColor: string): string =>
  `/logo/${primaryColor.slice(1).toLowerCase()}.svg`;

/** The route answering it, and how the colour is read from its last segment. */
export const LOGO_ROUTE = '/logo/:file';
export const LOGO_FILE = /^([0-9a-f]{6})\.svg$/;

/** The logo's SVG in `primaryColor` (`#rrggbb`, checked by the caller). */
export const logoSvg = (primaryColor: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${primaryColor}"/><path d="M18 22a6 6 0 0 1 6-6h16a6 6 0 0 1 6 6v12a6 6 0 0 1-6 6h-9l-8 7v-7h-1a6 6 0 0 1-6-6z" fill="#fff"/><circle cx="26" cy="28" r="2.5" fill="${primaryColor}"/><circle cx="32" cy="28" r="2.5" fill="${primaryColor}"/><circle cx="38" cy="28" r="2.5" fill="${primaryColor}"/></svg>`;
