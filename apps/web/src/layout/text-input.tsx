import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';

/** A plain input styled like antd's (the shell's bundle budget keeps antd Input out of the login page and layout). */
export function TextInput({ prefix, error, small, password, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, 'prefix'> & {
  prefix?: ReactNode;
  error?: boolean;
  small?: boolean;
  password?: boolean;
}) {
  const [shown, setShown] = useState(false);
  return (
    <span className="kv-input-wrap" style={{ display: 'block' }}>
      {prefix && <span className="kv-input-prefix">{prefix}</span>}
      <input
        {...props}
        type={password && !shown ? 'password' : props.type ?? 'text'}
        aria-invalid={error || undefined}
        className={`kv-input${error ? ' is-error' : ''}${small ? ' is-small' : ''}`}
      />
      {password && (
        <button type="button" className="kv-input-suffix" aria-label={shown ? '隐藏密码' : '显示密码'} onClick={() => setShown((s) => !s)}>
          {shown ? <EyeOutlined /> : <EyeInvisibleOutlined />}
        </button>
      )}
    </span>
  );
}
