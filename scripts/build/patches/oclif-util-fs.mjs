// oclif reads package.json and the manifest at every start-up: a synchronous read of a file of
// ours is as quick and keeps fs/promises (and the stream modules it loads) off the path.
export default {
  file: '@oclif/core/lib/util/fs.js',
  replace: [["const contents = await (0, promises_1.readFile)(path, 'utf8');", "const contents = (0, node_fs_1.readFileSync)(path, 'utf8');"]],
  append: '',
}
