// A webhook receiver for the tests: records each delivery (headers and raw body) and answers with
// the status the test sets (a function of the attempt number).
import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

export interface Received {
  headers: IncomingHttpHeaders
  body: string
}

export interface Receiver {
  url: string
  received: Received[]
  /** Status to answer for the n-th delivery (1-based); default 200. */
  respond: (n: number) => number
  close(): Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {url: '', received: [], respond: () => 200, close: async () => {}}
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      receiver.received.push({headers: req.headers, body: Buffer.concat(chunks).toString('utf8')})
      res.writeHead(receiver.respond(receiver.received.length))
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return receiver
}
