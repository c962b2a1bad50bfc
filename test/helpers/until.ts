/** Whether `done()` holds within `ms`, asked every 100 ms. */
export async function until(done: () => boolean, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms && !done(); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  return done();
}
