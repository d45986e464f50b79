import type { ReactNode } from 'react';
import { Button, Card, Space, Tag, Typography } from 'antd';
import {
  AlertOutlined, ApartmentOutlined, BarChartOutlined, ClockCircleOutlined, DashboardOutlined, FundProjectionScreenOutlined, MoneyCollectOutlined, ThunderboltOutlined,
} from '@ant-design/icons';
import { Link } from 'react-router';
import { BILLING_SCHEMES, DEVICE_CATEGORY_LABELS, DEVICE_TYPES, PROJECT_TYPES, REPORTS } from '@kelvin/contracts';
import { PublicFrame } from '../components';

const categories = [...new Set(DEVICE_TYPES.map((t) => t.category))].map((c) => DEVICE_CATEGORY_LABELS[c]);

/** What the platform does, each section's facts read from the product's own registries (no customer figures). */
const SECTIONS: { icon: ReactNode; title: string; text: string; tags?: string[] }[] = [
  { icon: <DashboardOutlined />, title: '设备监控与控制', text: `${DEVICE_TYPES.length} 种设备类型通过 MQTT 接入，实时状态秒级推送到页面；远程开关机、设定温度、锁定与模式下发均有回执。`, tags: categories },
  { icon: <MoneyCollectOutlined />, title: '计费、充值与押金', text: `${BILLING_SCHEMES.length} 种计费方案：时间当量、能量当量、计量热量、阶梯电价与多种分摊方式；预付费余额预警、欠费断开、充值后自动恢复。` },
  { icon: <BarChartOutlined />, title: '报表与数据中心', text: `${REPORTS.length} 张报表：能耗、收费、押金、分摊与设备状态，按日、月、年统计并导出 Excel。` },
  { icon: <FundProjectionScreenOutlined />, title: '数据大屏', text: '项目总览地图、综合大屏与项目大屏，设备在线率、告警与能耗一屏掌握。' },
  { icon: <ClockCircleOutlined />, title: '自动化', text: '周程序、定时与周期任务、节假日与策略任务，由服务端调度，每台设备的执行结果可追溯。' },
  { icon: <AlertOutlined />, title: '监控告警', text: '阈值、持续时间与离线规则，告警短信通知；异常数据（倒走、跳变、冻结）自动识别。' },
  { icon: <ApartmentOutlined />, title: '多租户与权限', text: `平台统一运营多家物业公司，角色按菜单与按钮授权、按项目授权；支持 ${PROJECT_TYPES.length} 种项目类型。` },
  { icon: <ThunderboltOutlined />, title: '开箱即用', text: '单进程启动，内置 SQLite 与 MQTT；规模扩大时切换 PostgreSQL 与外部消息服务器。' },
];

/** /introduction/index: the platform for visitors, with the ways in. */
export default function IntroductionPage() {
  return (
    <PublicFrame>
      <section style={{ textAlign: 'center', padding: '40px 8px 32px' }}>
        <Typography.Title level={1} style={{ marginBottom: 12 }}>Kelvin 楼宇能源管理平台</Typography.Title>
        <Typography.Paragraph style={{ fontSize: 16, maxWidth: 760, margin: '0 auto 24px', color: '#595959' }}>
          面向物业运营方的物联网能源管理控制台：监控和控制温控器、热泵、热量表、电表、平衡阀、光伏与 4G 设备，
          为住户和租户的采暖与空调计费并出具报表。
        </Typography.Paragraph>
        <Space wrap size="middle" style={{ justifyContent: 'center' }}>
          <Link to="/demo"><Button type="primary" size="large">在线演示</Button></Link>
          <Link to="/reg"><Button size="large">申请入驻</Button></Link>
          <Link to="/login"><Button size="large">登录控制台</Button></Link>
        </Space>
      </section>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(250px, 1fr))', gap: 16 }}>
        {SECTIONS.map((s) => (
          <Card key={s.title} data-testid="intro-section">
            <div style={{ fontSize: 28, color: '#1677ff', marginBottom: 8 }}>{s.icon}</div>
            <Typography.Title level={4} style={{ marginTop: 0 }}>{s.title}</Typography.Title>
            <Typography.Paragraph type="secondary" style={{ marginBottom: s.tags ? 8 : 0 }}>{s.text}</Typography.Paragraph>
            {s.tags && <div>{s.tags.map((t) => <Tag key={t} style={{ marginBottom: 4 }}>{t}</Tag>)}</div>}
          </Card>
        ))}
      </div>
    </PublicFrame>
  );
}
