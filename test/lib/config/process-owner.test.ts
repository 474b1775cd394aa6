import {spawn} from 'node:child_process'
import {existsSync} from 'node:fs'

import {describe, expect, it} from 'vitest'

import {currentOwner, isOwnerAlive} from '../../../src/lib/config/process-owner.js'

const linux = existsSync('/proc/self/stat')

describe('isOwnerAlive', () => {
  it('this process, and a live child with its own start time, are alive; an exited one is not', async () => {
    expect(isOwnerAlive(currentOwner())).toBe(true)
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'])
    try {
      expect(isOwnerAlive({pid: child.pid})).toBe(true)
    } finally {
      child.kill('SIGKILL')
      await new Promise((resolve) => child.once('exit', resolve))
    }
    expect(isOwnerAlive({pid: child.pid})).toBe(false)
    expect(isOwnerAlive({pid: 0})).toBe(false)
    expect(isOwnerAlive({pid: 'x'})).toBe(false)
  })

  it.runIf(linux)('a live PID whose start time differs (a PID reused since) is not the owner', () => {
    expect(currentOwner().pid_start).toMatch(/^\d+$/)
    expect(isOwnerAlive({pid: process.pid, pid_start: '1'})).toBe(false)
    expect(isOwnerAlive({pid: process.ppid, pid_start: '1'})).toBe(false)
    expect(isOwnerAlive({pid: process.ppid})).toBe(true)
  })
})
