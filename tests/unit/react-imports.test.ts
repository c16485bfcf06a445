/** A package's `import React` becomes named imports, so React is not wrapped for every page's islands (react-imports.ts). */
import { describe, expect, it } from 'vitest';
import { namedReactImports } from '@/lib/hydration/react-imports';

describe('named React imports for packages', () => {
  it('rewrites a default or namespace import whose every use is a member, comments aside', () => {
    const code = "import React from 'react';\n// React Context below\nconst C = React.createContext(null);\nexport const use = () => React.useContext(C) ?? React.useState(0);\n";
    expect(namedReactImports(code)).toBe(
      "import { createContext as __react_createContext, useContext as __react_useContext, useState as __react_useState } from 'react';\n// React Context below\nconst C = __react_createContext(null);\nexport const use = () => __react_useContext(C) ?? __react_useState(0);\n",
    );
    expect(namedReactImports("import * as React from 'react';\nexport const f = () => React.useId();")).toBe(
      "import { useId as __react_useId } from 'react';\nexport const f = () => __react_useId();",
    );
  });

  it('leaves a module that uses React itself, or imports it by name already', () => {
    expect(namedReactImports("import React from 'react';\nexport default React;")).toBeNull();
    expect(namedReactImports("import { useState } from 'react';\nexport const f = () => useState(0);")).toBeNull();
  });
});
