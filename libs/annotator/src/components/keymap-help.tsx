import type { JSX } from 'react';

export interface KeymapHelpProps {
  onClose?: () => void;
}

export function KeymapHelp(_props: KeymapHelpProps): JSX.Element {
  return <div data-testid="annotator-keymap" />;
}
