// jq-web 0.6.2 ships no types: its module exports a promise of jq's two entry points.
declare module 'jq-web' {
  const ready: Promise<{raw(json: string, filter: string, flags?: string[]): string | undefined}>
  export default ready
}
