// The React + Konva drawing component lands here (issue 5). The entry exists now so the Nx graph is whole.
export const ANNOTATOR_VERSION = 1;
