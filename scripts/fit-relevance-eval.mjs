export async function fitAndReport(data) {
  process.stderr.write(`${data.rows.length} rows, ${Object.keys(data.cases).length} cases\n`);
}
