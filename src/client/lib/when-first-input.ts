/** What counts as the person starting to use the page: a touch, a click, a key, a focus. */
const INPUTS = ['pointerdown', 'keydown', 'focusin', 'touchstart'] as const;

let firstInput: Promise<void> | undefined;

/**
 * Resolves at the first input on the page (at once if there was one already): for code a screen
 * needs only once it is used, such as the join form's check and its proof of work, so that a page
 * the person only reads runs nothing more after it is drawn (decision 247).
 */
export function whenFirstInput(): Promise<void> {
  firstInput ??= new Promise((resolve) => {
    const done = () => {
      for (const type of INPUTS) document.removeEventListener(type, done, true);
      resolve();
    };
    for (const type of INPUTS) {
      document.addEventListener(type, done, { capture: true, passive: true });
    }
    // A field that has the focus already (the browser's autofocus, a restored page) is in use.
    if (document.activeElement instanceof HTMLInputElement) done();
  });
  return firstInput;
}
