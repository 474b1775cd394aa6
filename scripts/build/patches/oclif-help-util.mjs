// Help renders each description, usage and example as an EJS template. Text without `<%`
// renders to itself, and the two tags in use, `<%= config.bin %>` (our examples) and
// `<%= command.id %>` (oclif's usage line), to their values (EJS escapes them as HTML: only a
// value with none of &<>"' is put in as is). EJS (~40 KB) loads for any other template.
export default {
  file: '@oclif/core/lib/help/util.js',
  replace: [['return ejs_1.default.render(t, context);', 'return __svcRender(t, context, () => ejs_1.default.render(t, context));']],
  append: `
function __svcRender(text, context, ejs) {
if (!text.includes('<%')) return text;
let rendered = text;
for (const [tag, value] of [['<%= config.bin %>', context?.config?.bin], ['<%= command.id %>', context?.command?.id]]) {
  if (!rendered.includes(tag)) continue;
  if (typeof value !== 'string' || /[&<>"']/.test(value)) return ejs();
  rendered = rendered.split(tag).join(value);
}
return rendered.includes('<%') ? ejs() : rendered;
}
`,
}
