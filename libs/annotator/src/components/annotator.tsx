import type { JSX } from 'react';
import type { AnnotatorProps } from '../annotator.types';

export function Annotator(props: AnnotatorProps): JSX.Element {
  return <div data-testid="annotator" className={props.className} />;
}
