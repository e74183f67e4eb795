import { useEffect, useState } from 'react';

interface Props {
  text: string;
  /** What is copied, for the accessible name: "Copy secret". */
  what?: string;
}

/** Copies text to the clipboard and says so for two seconds (also to screen readers). */
export function CopyButton({ text, what = 'to clipboard' }: Props) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      // No clipboard permission (an http page, an old browser): the text stays selectable beside the button.
      setState('failed');
    }
  };

  return (
    <button type="button" className="button small" onClick={copy} aria-label={`Copy ${what}`}>
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy' : 'Copy'}</span>
    </button>
  );
}
