import { useMemo, useState } from 'react';
import { Badge, Button, Card, Col, Empty, List, Row, Space, Tag, Tooltip } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { ProjectMapStatus } from '@kelvin/contracts';
import { PageContainer } from '../../../components/page';
import { useProject } from '../../../stores/project';
import { projectApi, projectKeys } from '../api';
import { COLORS, ProjectMap } from '../components/project-map';

/** projectindex (地图总览): projects placed by their coordinates with their status, and a list beside. */
export default function ProjectIndex() {
  const navigate = useNavigate();
  const map = useQuery({ queryKey: projectKeys.map, queryFn: projectApi.map, refetchInterval: 60_000 });
  const items = useMemo(() => map.data?.items ?? [], [map.data]);
  const labels = map.data?.statusLabels;
  const [hover, setHover] = useState<number | null>(null);
  const enter = (id: number) => {
    void useProject.getState().choose(id);
    navigate('/project/projectview2');
  };
  const unplaced = items.filter((i) => i.lng === null || i.lat === null);
  const placed = items.filter((i) => i.lng !== null && i.lat !== null);
  return (
    <PageContainer title="地图总览" extra={labels && (
      <Space>{(Object.keys(COLORS) as ProjectMapStatus[]).map((s) => <Badge key={s} color={COLORS[s]} text={labels[s]} />)}</Space>
    )}>
      <Row gutter={12}>
        <Col xs={24} lg={16}>
          <Card size="small" loading={map.isLoading} styles={{ body: { padding: 0 } }}>
            {!placed.length && !map.isLoading && <Empty style={{ padding: '24px 0 0' }} description="项目还没有经纬度，请在项目编辑中填写" />}
            <ProjectMap items={items} hover={hover} onHover={setHover} onEnter={enter}
              detail={(i) => `${labels?.[i.status] ?? ''} · 设备 ${i.counts.devices ?? '—'} · 在线率 ${i.counts.onlineRate ?? '—'}%`} />
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card size="small" title={`项目（${items.length}）`} styles={{ body: { maxHeight: 520, overflow: 'auto', padding: 0 } }}>
            <List dataSource={items} locale={{ emptyText: '暂无项目' }} renderItem={(i) => (
              <List.Item onMouseEnter={() => setHover(i.id)} onMouseLeave={() => setHover(null)} style={{ padding: '8px 12px', background: hover === i.id ? '#f0f5ff' : undefined }}
                actions={[<Button key="go" type="link" size="small" onClick={() => enter(i.id)}>进入</Button>]}>
                <List.Item.Meta
                  title={<Space><Badge color={COLORS[i.status]} />{i.alias || i.name}{unplaced.includes(i) && <Tooltip title="未填写经纬度，地图上不显示"><Tag>无坐标</Tag></Tooltip>}</Space>}
                  description={`${labels?.[i.status] ?? ''} · 楼栋 ${i.counts.buildings} · 房间 ${i.counts.rooms} · 设备 ${i.counts.devices ?? '—'}${i.address ? ` · ${i.address}` : ''}`} />
              </List.Item>
            )} />
          </Card>
        </Col>
      </Row>
    </PageContainer>
  );
}
