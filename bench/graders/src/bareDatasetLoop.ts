import { readFileSync } from "node:fs"

/**
 * The bare loop a dataset eval is measured against: the same chat-completions calls (one per row, the row's question
 * as the user message) at the same concurrency, straight at the model with global fetch, each answer compared with
 * the row's `answer`. With a RUBRIC, each answer (right or wrong) is then judged by a second call on the same worker, the judge's
 * prompt written as proctor's rubric grader writes it, and its JSON score read. Prints `{"correct": N}`.
 * Args: DATASET URL CONCURRENCY [RUBRIC].
 */
const [dataset, url, concurrencyArg, rubric] = process.argv.slice(2) as [string, string, string, string | undefined]

const chat = async (messages: ReadonlyArray<{ role: string; content: string }>) => {
  const response = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer bench" },
    body: JSON.stringify({ model: "baseline", messages }),
  })
  const body = (await response.json()) as { choices: Array<{ message: { content: string } }> }
  return body.choices[0]?.message.content ?? ""
}

const judge = async (question: string, answer: string) => {
  const text = await chat([
    {
      role: "system",
      content:
        "You are a judge: you grade an answer to a task, carefully and impartially.\n" +
        "Score the answer by the rubric, from the lowest score (fails it) to the highest (meets it fully).\n" +
        'Reply with one JSON object and nothing else, in this format:\n{"reasoning": "<one or two sentences>", "score": <an integer from 1 to 5>}',
    },
    { role: "user", content: `[Task]\n${question}\n\n[Answer]\n${answer}\n\n[Rubric]\n${rubric}` },
  ])
  return (JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as { score: number }).score
}
const rows = readFileSync(dataset, "utf8")
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as { question: string; answer: string })
let next = 0
let correct = 0
const worker = async () => {
  while (next < rows.length) {
    const row = rows[next++]!
    const answer = await chat([{ role: "user", content: row.question }])
    const right = answer.trim() === row.answer
    // Every answer is judged, right or wrong, as proctor's rubric grader judges every row: the same calls.
    const judged = rubric === undefined || (await judge(row.question, answer)) >= 3
    if (right && judged) correct++
  }
}
await Promise.all(Array.from({ length: Number(concurrencyArg) }, worker))
process.stdout.write(`${JSON.stringify({ correct })}\n`)
