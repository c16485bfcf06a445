// netlify-redirector ships WebAssembly behind a CommonJS module without types: the part local/netlify-rules.ts uses.
declare module 'netlify-redirector' {
  type Match = { to: string; status?: number; force?: boolean; force404?: boolean } | null;
  const redirector: { parseJSON(rules: string, options: object): Promise<{ match(request: object): Match }> };
  export default redirector;
}
