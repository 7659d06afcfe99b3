// ESLint for the browser table's scripts (src/gouji/server/static) and their unit tests (tests/js).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["**/node_modules/**", ".venv/**"] },
  js.configs.recommended,
  {
    files: ["src/gouji/server/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: { "no-unused-vars": ["error", { args: "none" }], "no-empty": ["error", { allowEmptyCatch: true }] },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
