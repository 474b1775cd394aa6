import {ONE_COLUMN} from '../../string-width-fast.mjs'

// Help measures and wraps every word with string-width, which strips ANSI codes and replaces
// emoji with a large pattern for each: text of one-column characters is as wide as it is long.
export default {
  file: 'string-width/index.js',
  replace: [['\tstring = stripAnsi(string);', `\tif (/^${ONE_COLUMN}*$/.test(string)) {\n\t\treturn string.length;\n\t}\n\n\tstring = stripAnsi(string);`]],
  append: '',
}
