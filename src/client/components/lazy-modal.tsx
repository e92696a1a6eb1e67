import { type ComponentType, Suspense, lazy, useState } from 'react';

/**
 * A modal whose code (Mantine's Modal, the form, the schema that checks it) loads the first time
 * it opens instead of with the screen that has it (decision 070). Once loaded it stays mounted,
 * so it closes with its transition and opens at once the next time. `isOpen` says, from the
 * props, whether the modal is open.
 */
export function lazyModal<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  isOpen: (props: Props) => boolean,
): ComponentType<Props> {
  const Modal = lazy(async () => ({ default: await load() }));
  function LazyModal(props: Props) {
    const open = isOpen(props);
    const [wanted, setWanted] = useState(open);
    if (open && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Modal {...props} />
      </Suspense>
    );
  }
  return LazyModal;
}
