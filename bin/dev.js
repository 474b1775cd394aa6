#!/usr/bin/env -S node --import tsx --no-warnings=ExperimentalWarning
// Runs the TypeScript sources directly (no build): `./bin/dev.js pay list`.
import {execute} from '@oclif/core'

await execute({development: true, dir: import.meta.url})
