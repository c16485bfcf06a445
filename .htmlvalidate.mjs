/**
 * html-validate over every built page (tests/unit/html-validate.test.ts). A module, not JSON, so that each rule
 * turned off or loosened says why: only where the markup is deliberate or written by React, not by the shop.
 * @type {import('html-validate').ConfigData}
 */
export default {
  root: true,
  extends: ['html-validate:recommended'],
  rules: {
    // React's server renderer writes `<input/>`, `srcSet`, `disabled=""` and `hidden=""`: each is valid HTML, and none is the components' to choose.
    'void-style': 'off',
    'attr-case': 'off',
    'attribute-boolean-style': 'off',
    'attribute-empty-style': 'off',
    // React's useId gives ids such as "_r1R_0_"; HTML allows any id without whitespace, which the relaxed mode still checks.
    'valid-id': ['error', { relaxed: true }],
    // The address lookup is a text field with a list of suggestions (an ARIA combobox and its listbox), not a fixed list a <select> could hold.
    'prefer-native-element': ['error', { exclude: ['combobox', 'listbox'] }],
    // Page titles are the publisher's search copy; Google cuts a title by its width, not at 70 characters.
    'long-title': 'off',
    // The store's search filters as the visitor types: a form of one text field submits on Enter without a button (HTML's implicit submission).
    'wcag/h32': 'off',
  },
};
