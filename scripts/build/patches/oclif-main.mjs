// Every run asks help's two argv helpers (in help/util.js); the rest of help (formatter, command
// and root help, their packages) loads only to show help (LAZY_IN_CORE).
export default {
  file: '@oclif/core/lib/main.js',
  replace: [
    ['(0, help_1.getHelpFlagAdditions)', '(0, require("./help/util").getHelpFlagAdditions)'],
    ['(0, help_1.normalizeArgv)', '(0, require("./help/util").normalizeArgv)'],
  ],
  append: '',
}
