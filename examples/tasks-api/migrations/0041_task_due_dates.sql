-- A task may have a due date (PUT /tasks/{id}/due): an open task past it is overdue, which POST /ask explains.
ALTER TABLE tasks ADD COLUMN due_at timestamptz;

-- down
ALTER TABLE tasks DROP COLUMN due_at;
