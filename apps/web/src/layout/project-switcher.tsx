import { useMemo, useRef, useState } from 'react';
import { Button, Tooltip } from 'antd';
import { CaretDownOutlined, EnvironmentOutlined, SearchOutlined } from '@ant-design/icons';
import { useProject } from '../stores/project';
import { useSwitchProject } from './use-app-routes';
import { PopMenu } from './pop-menu';
import { TextInput } from './text-input';

/** Spec §2.2/§9: the search box from 12 projects; switching disabled at 1 or fewer; closes 1 s after mouse-leave. */
export const PROJECT_SEARCH_MIN = 12;
export const PROJECT_DROPDOWN_CLOSE_MS = 1000;

export function ProjectSwitcher() {
  const projects = useProject((s) => s.projects);
  const current = useProject((s) => s.current);
  const switchProject = useSwitchProject();
  const [open, setOpen] = useState(false);
  const [keyword, setKeyword] = useState('');
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const disabled = projects.length <= 1;

  const cancelClose = () => {
    if (closeTimer.current) clearTimeout(closeTimer.current);
    closeTimer.current = null;
  };
  const scheduleClose = () => {
    cancelClose();
    closeTimer.current = setTimeout(() => setOpen(false), PROJECT_DROPDOWN_CLOSE_MS);
  };
  // reopening starts with an empty search: the list is never silently filtered by an earlier search
  const toggle = () => {
    if (!open) setKeyword('');
    setOpen(!open);
  };

  const shown = useMemo(() => {
    const k = keyword.trim();
    return k ? projects.filter((p) => p.label.includes(k) || p.region.includes(k)) : projects;
  }, [projects, keyword]);
  const regions = useMemo(() => [...new Set(shown.map((p) => p.region))], [shown]);

  return (
    <div style={{ position: 'relative' }} onMouseLeave={open ? scheduleClose : undefined} onMouseEnter={cancelClose}>
      <Tooltip title={disabled ? '只有一个项目，无需切换' : undefined}>
        <Button
          type="text"
          data-testid="project-switcher"
          disabled={disabled}
          onClick={toggle}
          style={{ fontWeight: 600, maxWidth: 260 }}
        >
          <EnvironmentOutlined />
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{current?.label ?? '未选择项目'}</span>
          {!disabled && <CaretDownOutlined />}
        </Button>
      </Tooltip>
      {open && !disabled && (
        <div
          role="listbox"
          aria-label="切换项目"
          style={{
            position: 'absolute', top: '100%', left: 0, zIndex: 1050, width: 320, maxHeight: 420, overflow: 'auto',
            background: '#fff', boxShadow: '0 6px 16px rgba(0,0,0,0.12)', borderRadius: 8, padding: 8,
          }}
        >
          {projects.length >= PROJECT_SEARCH_MIN && (
            <div style={{ marginBottom: 8 }}>
              <TextInput small autoFocus prefix={<SearchOutlined />} placeholder="搜索项目名称" aria-label="搜索项目" value={keyword} onChange={(e) => setKeyword(e.target.value)} />
            </div>
          )}
          {!shown.length && <div style={{ padding: 16, textAlign: 'center', color: 'rgba(0,0,0,0.45)' }}>没有匹配的项目</div>}
          {regions.map((r) => (
            <div key={r}>
              {r && <div style={{ fontSize: 12, color: 'rgba(0,0,0,0.45)', padding: '4px 8px' }}>{r}</div>}
              {shown.filter((p) => p.region === r).map((p) => (
                <div
                  key={p.id}
                  role="option"
                  aria-selected={p.id === current?.id}
                  className="kv-project-option"
                  onClick={() => {
                    setOpen(false);
                    setKeyword('');
                    if (p.id !== current?.id) void switchProject(p.id);
                  }}
                  style={{
                    padding: '6px 12px', cursor: 'pointer', borderRadius: 6,
                    background: p.id === current?.id ? '#e6f4ff' : undefined, color: p.id === current?.id ? '#1677ff' : undefined,
                  }}
                >
                  {p.label}
                </div>
              ))}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** Mobile project selector, filled from the area tree (a dropdown: antd Select stays out of the shell bundle). */
export function MobileProjectSelect() {
  const projects = useProject((s) => s.projects);
  const current = useProject((s) => s.current);
  const switchProject = useSwitchProject();
  return (
    <PopMenu
      placement="bottomLeft"
      testId="mobile-project-menu"
      items={projects.map((p) => ({ key: String(p.id), label: p.label, selected: p.id === current?.id }))}
      onClick={(key) => {
        if (Number(key) !== current?.id) void switchProject(Number(key), { mobile: true });
      }}
    >
      <Button size="small" data-testid="mobile-project-select" disabled={projects.length <= 1} style={{ maxWidth: 170 }}>
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{current?.label ?? '选择项目'}</span>
        <CaretDownOutlined />
      </Button>
    </PopMenu>
  );
}
