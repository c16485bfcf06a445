/**
 * React's default export, made of named imports, for react-hook-form (the one dependency that imports React's
 * default). A default import of React, a CommonJS module, makes the bundler wrap React differently for every island
 * and load its interop helper on every page; named imports keep React as the shop's own code imports it, so the
 * pages without a form gain nothing from the form library (astro.config.mjs points react-hook-form's `react` here).
 */
import { createContext, createElement, Fragment, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';

export default { createContext, createElement, Fragment, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState };
