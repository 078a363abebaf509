import { readFileSync } from "node:fs"

/**
 * The bare loop a dataset eval is measured against: the same chat-completions calls (one per row, the row's question
 * as the user message) at the same concurrency, straight at the model with global fetch, each answer compared with
 * the row's `answer`. Prints `{"correct": N}`. Args: DATASET URL CONCURRENCY.
 */
const [dataset, url, concurrencyArg] = process.argv.slice(2) as [string, string, string]
const rows = readFileSync(dataset, "utf8")
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as { question: string; answer: string })
let next = 0
let correct = 0
const worker = async () => {
  while (next < rows.length) {
    const row = rows[next++]!
    const response = await fetch(`${url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bench" },
      body: JSON.stringify({ model: "baseline", messages: [{ role: "user", content: row.question }] }),
    })
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }> }
    if (body.choices[0]?.message.content.trim() === row.answer) correct++
  }
}
await Promise.all(Array.from({ length: Number(concurrencyArg) }, worker))
process.stdout.write(`${JSON.stringify({ correct })}\n`)
