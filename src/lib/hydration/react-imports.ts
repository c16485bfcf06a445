/**
 * React's own package is CommonJS. While every importer names what it takes (`import { useState } from 'react'`),
 * the bundler hands them React's exports as they are; one default or namespace import (`import React from 'react'`,
 * as react-hook-form writes it) makes it wrap React for every importer on every page, adding its interop helper to
 * the shared runtime and a wrapper call to each island's file. So a library that only reads members of `React`
 * (`React.useState`) has its import rewritten to named imports at build time, and the pages without its forms keep
 * the bytes they had. A library that uses `React` otherwise is left as it is.
 */
const REACT_IMPORT = /^import (?:\* as )?React from ['"]react['"];?[ \t]*$/m;
const MEMBER = /\bReact\.([A-Za-z_$][\w$]*)/g;

/** Code without its comments, well enough to ask whether `React` is used other than by its members. */
const withoutComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\'"`])\/\/.*$/gm, '$1');

/** The module with named imports of React in place of its default or namespace import, or null to leave it. */
export function namedReactImports(code: string): string | null {
  const match = REACT_IMPORT.exec(code);
  if (!match) return null;
  const rest = code.slice(0, match.index) + code.slice(match.index + match[0].length);
  if (/\bReact\b(?!\.)/.test(withoutComments(rest).replace(MEMBER, ''))) return null;
  const names = [...new Set(Array.from(rest.matchAll(MEMBER), (m) => m[1]))];
  return `import { ${names.map((name) => `${name} as __react_${name}`).join(', ')} } from 'react';${rest.replace(MEMBER, '__react_$1')}`;
}

/** The Vite plugin: packages' modules only (the shop's own code names its imports). */
export const reactNamedImports = () => ({
  name: 'react-named-imports',
  apply: 'build' as const,
  transform(code: string, id: string) {
    if (!id.includes('/node_modules/') || id.includes('/node_modules/react/')) return null;
    const rewritten = namedReactImports(code);
    return rewritten === null ? null : { code: rewritten, map: null };
  },
});
