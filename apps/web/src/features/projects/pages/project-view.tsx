import { Card, Col, Descriptions, Empty, Progress, Row, Spin, Statistic } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { billingSchemeName } from '@kelvin/contracts';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { projectApi, projectKeys } from '../api';
import { ProjectFiles } from '../components/project-files';

const dash = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/** projectview (项目详情): type codes, address, location, figures (buildings, rooms, devices, online rate, alarms), files. */
export default function ProjectView() {
  const projectId = useProjectId();
  const detail = useQuery({ queryKey: projectKeys.detail(projectId), queryFn: () => projectApi.detail(projectId!), enabled: projectId !== null, refetchInterval: 60_000 });
  if (projectId === null) return <NoProject title="项目详情" />;
  const p = detail.data;
  const c = p?.counts;
  return (
    <PageContainer title={`项目详情：${p?.alias || p?.name || ''}`}>
      <Spin spinning={detail.isLoading}>
        <Row gutter={12}>
          {[
            ['楼栋', c?.buildings], ['楼层', c?.floors], ['房间', c?.rooms], ['总面积 (m²)', c?.floorArea], ['设备', c?.devices], ['在线', c?.online],
          ].map(([label, value]) => (
            <Col key={label as string} xs={12} md={4}>
              <Card size="small"><Statistic title={label as string} value={value === null || value === undefined ? '—' : (value as number)} /></Card>
            </Col>
          ))}
        </Row>
        <Row gutter={12} style={{ marginTop: 12 }}>
          <Col xs={24} md={8}>
            <Card size="small" title="在线率" style={{ height: '100%' }}>
              {c?.onlineRate === null || c?.onlineRate === undefined ? <Empty description="暂无设备数据" image={Empty.PRESENTED_IMAGE_SIMPLE} />
                : <Progress type="dashboard" percent={c.onlineRate} format={(v) => `${v}%`} />}
              <div>今日告警：{c?.alarmsToday ?? '—'}</div>
            </Card>
          </Col>
          <Col xs={24} md={16}>
            <Card size="small" title="基本信息">
              <Descriptions size="small" column={{ xs: 1, md: 2 }} items={[
                { label: '项目名称', children: dash(p?.name) },
                { label: '别名', children: dash(p?.alias) },
                { label: '所属区域', children: dash(p?.regionName) },
                { label: '项目类型', children: p?.projectType ? `${p.projectType} ${p.projectTypeName ?? ''}` : '—' },
                { label: '二级类型', children: p?.projectType2 ? `${p.projectType2} ${p.projectType2Name ?? ''}` : '—' },
                { label: '计费方案', children: dash(billingSchemeName(p?.billingScheme)) },
                { label: '地址', children: dash(p?.address) },
                { label: '经纬度', children: p?.lng !== null && p?.lng !== undefined ? `${p.lng}, ${p.lat}` : '—' },
                { label: '联系人', children: dash(p?.contact) },
                { label: '联系电话', children: dash(p?.phone) },
                { label: '备注', children: dash(p?.remark), span: 2 },
              ]} />
            </Card>
          </Col>
        </Row>
      </Spin>
      <ProjectFiles projectId={projectId} />
    </PageContainer>
  );
}
