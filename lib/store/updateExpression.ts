/** Building DynamoDB update expressions from plain objects. */

export interface SetExpression {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

/** `SET #a = :a, …` for every defined value of `values` (DynamoDB rejects undefined). */
export function setExpression(values: Record<string, unknown>): SetExpression {
  const names: Record<string, string> = {};
  const vals: Record<string, unknown> = {};
  const sets: string[] = [];
  Object.entries(values).forEach(([field, value], i) => {
    if (value === undefined) return;
    names[`#f${i}`] = field;
    vals[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  });
  return {
    UpdateExpression: `SET ${sets.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: vals,
  };
}
