import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.ts';

describe('statement cache', () => {
  const open = () => {
    const file = new SQLite(':memory:');
    file.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    file.exec("INSERT INTO t (v) VALUES ('a'), ('b'), ('c')");
    return file;
  };

  it('the same SQL gets the same statement; a statement being iterated is not handed out again', () => {
    const db = withStatementCache(open());
    const sql = 'SELECT id, v FROM t ORDER BY id';
    const first = db.prepare(sql);
    expect(db.prepare(sql)).toBe(first);
    // a streamed query holds its statement: the same SQL meanwhile gets a fresh one, and both read everything
    const outer = (first as unknown as { iterate(): IterableIterator<{ v: string }> }).iterate();
    expect(outer.next().value).toEqual({ id: 1, v: 'a' });
    const inner = db.prepare(sql);
    expect(inner).not.toBe(first);
    expect((inner as unknown as { all(): unknown[] }).all()).toHaveLength(3);
    expect([...outer].map((r) => r.v)).toEqual(['b', 'c']);
    // done iterating: the kept one is handed out again
    expect(db.prepare(sql)).toBe(first);
    db.close();
  });

  it('a kept statement still answers after the schema changed', () => {
    const file = open();
    const db = withStatementCache(file);
    const sql = 'SELECT * FROM t WHERE id = ?';
    expect((db.prepare(sql) as unknown as { all(p: unknown[]): unknown[] }).all([1])).toEqual([{ id: 1, v: 'a' }]);
    file.exec("ALTER TABLE t ADD COLUMN w TEXT DEFAULT 'x'");
    expect((db.prepare(sql) as unknown as { all(p: unknown[]): unknown[] }).all([1])).toEqual([{ id: 1, v: 'a', w: 'x' }]);
    db.close();
  });

  it('keeps at most 500, dropping the least recently used', () => {
    const db = withStatementCache(open());
    const first = db.prepare('SELECT 0');
    const one = db.prepare('SELECT 1');
    for (let i = 2; i < 500; i++) db.prepare(`SELECT ${i}`);
    expect(db.prepare('SELECT 0')).toBe(first); // used again: now the most recent
    db.prepare('SELECT 500'); // 501 kept → the least recent (SELECT 1) goes
    expect(db.prepare('SELECT 0')).toBe(first);
    const again = db.prepare('SELECT 1');
    expect(again).not.toBe(one);
    expect(db.prepare('SELECT 1')).toBe(again);
    db.close();
  });
});
