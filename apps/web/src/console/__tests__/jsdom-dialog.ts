/**
 * jsdom has <dialog> without showModal and close: enough of them for the console's confirm dialogs to
 * open and close in a unit test. Call at a spec's top level.
 */
export function installDialog(): void {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}
